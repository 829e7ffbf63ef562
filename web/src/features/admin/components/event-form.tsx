import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, useMemo, useRef } from 'react';
import { type Resolver, useController, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  type AdminFormMeta,
  type EventFormValues,
  eventInputSchema,
  piastersToEgpInput,
} from '../../../../../contracts/admin';
import type { EventDto } from '../../../../../contracts/catalogue';
import { adminMessages } from '../../../../../contracts/messages/admin';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { SelectField } from '../../../components/ui/select-field';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { recheckField } from '../../../lib/recheck-field';
import { useSaveEvent } from '../api/save-event';
import { ImageField } from './image-field';

const FIELDS: ReadonlyArray<keyof EventFormValues> = [
  'imageUrl',
  'title',
  'host',
  'location',
  'price',
  'tickets',
  'categoryId',
  'startDate',
  'endDate',
  'eventDate',
  'startTime',
  'endTime',
  'description',
];

function initialValues(meta: AdminFormMeta, event?: EventDto): EventFormValues {
  if (!event) {
    return {
      title: '',
      host: '',
      location: '',
      price: '',
      tickets: '',
      categoryId: meta.defaultCategoryId,
      startDate: '',
      endDate: '',
      eventDate: '',
      startTime: '',
      endTime: '',
      description: '',
      imageUrl: '',
    };
  }
  return {
    title: event.title,
    host: event.host,
    location: event.location,
    price: piastersToEgpInput(event.pricePiasters),
    tickets: String(event.capacity),
    categoryId: event.categoryId,
    startDate: event.startDate,
    endDate: event.endDate,
    eventDate: event.eventDate,
    startTime: event.startTime,
    endTime: event.endTime,
    description: event.description,
    imageUrl: event.imageUrl,
  };
}

/** The admin's event form: every field checked as it changes, the whole form on submit (contracts/admin.ts). */
export function EventForm({ meta, event }: { meta: AdminFormMeta; event?: EventDto }) {
  const navigate = useNavigate();
  const save = useSaveEvent(event?.id);
  const isEdit = event !== undefined;
  const resolver = useMemo(
    () =>
      // raw: submit the values as typed; the server parses them with this same schema.
      zodResolver(eventInputSchema(meta.today, { currentStartDate: event?.startDate }), undefined, {
        raw: true,
      }) as unknown as Resolver<EventFormValues>,
    [meta.today, event?.startDate],
  );
  const {
    register,
    handleSubmit,
    control,
    trigger,
    setError,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<EventFormValues>({
    mode: 'onChange',
    defaultValues: initialValues(meta, event),
    resolver,
  });
  const image = useController({ control, name: 'imageUrl' });

  /** A date rule involves two fields: re-check the later one when the earlier changes, once it was filled. */
  function recheck(name: keyof EventFormValues) {
    recheckField(getFieldState, trigger, name);
  }

  /** Saved: the form stays locked while the list page loads (the navigation is a transition). */
  const saved = useRef(false);
  const saveEvent = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      saved.current = true;
      toast.success(isEdit ? adminMessages.edited : adminMessages.added);
      navigate('/admin');
    } catch (error) {
      // The session has ended: the app is moving to /login and says why (web/src/app/session-end.ts).
      if (isSessionEnded(error)) return;
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.errors)) {
          if ((FIELDS as readonly string[]).includes(field)) {
            setError(field as keyof EventFormValues, { type: 'server', message }, { shouldFocus: true });
          }
        }
      }
      toast.error(isEdit ? adminMessages.editFailed : adminMessages.addFailed);
    }
  });

  // One save at a time: clicks or Enter presses in the same instant, before the button is disabled, are one.
  const submitting = useRef(false);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (submitting.current) {
      event.preventDefault();
      return;
    }
    submitting.current = true;
    void saveEvent(event).finally(() => {
      if (!saved.current) submitting.current = false;
    });
  }

  const saving = isSubmitting || save.isPending || save.isSuccess;
  const taken = event ? event.capacity - event.ticketsAvailable : 0;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6" aria-busy={saving}>
      <ImageField
        value={image.field.value}
        error={errors.imageUrl?.message}
        onUploaded={(url) => {
          image.field.onChange(url);
          void trigger('imageUrl');
        }}
        onError={(message) => setError('imageUrl', { type: 'upload', message })}
        fieldRef={image.field.ref}
      />

      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Title" autoComplete="off" error={errors.title?.message} {...register('title')} />
        <TextField label="Host" autoComplete="off" error={errors.host?.message} {...register('host')} />
        <TextField
          label="Location"
          autoComplete="off"
          className="sm:col-span-2"
          error={errors.location?.message}
          {...register('location')}
        />
        <TextField
          label="Ticket price (EGP)"
          inputMode="decimal"
          autoComplete="off"
          error={errors.price?.message}
          {...register('price')}
        />
        <TextField
          label="Number of tickets"
          inputMode="numeric"
          autoComplete="off"
          error={errors.tickets?.message}
          hint={
            taken > 0 ? (
              <p className="text-xs text-fg-muted">{taken} already held or sold: the number cannot go below it.</p>
            ) : undefined
          }
          {...register('tickets')}
        />
        <SelectField label="Category" error={errors.categoryId?.message} {...register('categoryId')}>
          {meta.categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </SelectField>
      </div>

      <fieldset className="grid gap-5 sm:grid-cols-3">
        <legend className="sr-only">Dates</legend>
        <TextField
          label="Start date"
          type="date"
          min={isEdit ? undefined : meta.today}
          error={errors.startDate?.message}
          {...register('startDate', { onChange: () => recheck('endDate') })}
        />
        <TextField
          label="End date"
          type="date"
          error={errors.endDate?.message}
          {...register('endDate', { onChange: () => recheck('eventDate') })}
        />
        <TextField label="Event date" type="date" error={errors.eventDate?.message} {...register('eventDate')} />
      </fieldset>

      {/* Text, not type=time: a time input follows the browser's locale (AM/PM in en-US), the spec wants 24-hour HH:MM. */}
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="sr-only">Times, 24-hour</legend>
        <TextField
          label="Start time (24-hour)"
          placeholder="HH:MM"
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          error={errors.startTime?.message}
          {...register('startTime')}
        />
        <TextField
          label="End time (24-hour)"
          placeholder="HH:MM"
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          error={errors.endTime?.message}
          {...register('endTime')}
        />
      </fieldset>

      <TextAreaField label="Description" rows={6} error={errors.description?.message} {...register('description')} />

      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink to="/admin" variant="secondary">
          Cancel
        </ButtonLink>
        <Button type="submit" disabled={saving} className="min-w-36">
          {saving ? <Spinner label="Saving" /> : null}
          {isEdit ? 'Save Changes' : 'Create Event'}
        </Button>
      </div>
    </form>
  );
}
