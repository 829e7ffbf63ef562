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
import type { Category, EventDto } from '../../../../../contracts/catalogue';
import type { I18n } from '../../../../../contracts/i18n/i18n';
import type { MessageKey } from '../../../../../contracts/i18n/types';
import { CANCELLATION_FEE_DEFAULT, REFUND_HOURS_DEFAULT } from '../../../../../contracts/refunds';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { SelectField } from '../../../components/ui/select-field';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
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
  'refundHours',
  'cancellationFee',
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
      refundHours: String(REFUND_HOURS_DEFAULT),
      cancellationFee: String(CANCELLATION_FEE_DEFAULT),
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
    refundHours: String(event.refundHoursBefore),
    cancellationFee: String(event.cancellationFeePercent),
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

/** A category's name in the page's language (a category the messages do not know keeps the name it was given). */
function categoryName(t: I18n['t'], category: Category): string {
  const key = `catalogue.categories.${category.id}`;
  const name = t(key as MessageKey);
  return name === key ? category.name : name;
}

/** The admin's event form: every field checked as it changes, the whole form on submit (contracts/admin.ts). */
export function EventForm({ meta, event }: { meta: AdminFormMeta; event?: EventDto }) {
  const { t } = useI18n();
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
      toast.success(t(isEdit ? 'admin.edited' : 'admin.added'));
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
      toast.error(t(isEdit ? 'admin.editFailed' : 'admin.addFailed'));
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
        <TextField
          label={t('eventForm.titleLabel')}
          autoComplete="off"
          error={errors.title?.message}
          {...register('title')}
        />
        <TextField
          label={t('eventForm.hostLabel')}
          autoComplete="off"
          error={errors.host?.message}
          {...register('host')}
        />
        <TextField
          label={t('eventForm.locationLabel')}
          autoComplete="off"
          className="sm:col-span-2"
          error={errors.location?.message}
          {...register('location')}
        />
        <TextField
          label={t('eventForm.priceLabel')}
          inputMode="decimal"
          autoComplete="off"
          error={errors.price?.message}
          {...register('price')}
        />
        <TextField
          label={t('eventForm.ticketsLabel')}
          inputMode="numeric"
          autoComplete="off"
          error={errors.tickets?.message}
          hint={
            taken > 0 ? <p className="text-xs text-fg-muted">{t('eventForm.taken', { count: taken })}</p> : undefined
          }
          {...register('tickets')}
        />
        <SelectField
          label={t('eventForm.categoryLabel')}
          error={errors.categoryId?.message}
          {...register('categoryId')}
        >
          {meta.categories.map((category) => (
            <option key={category.id} value={category.id}>
              {categoryName(t, category)}
            </option>
          ))}
        </SelectField>
      </div>

      <fieldset className="grid gap-5 sm:grid-cols-3">
        <legend className="sr-only">{t('eventForm.dates')}</legend>
        <TextField
          label={t('eventForm.startDateLabel')}
          type="date"
          min={isEdit ? undefined : meta.today}
          error={errors.startDate?.message}
          {...register('startDate', { onChange: () => recheck('endDate') })}
        />
        <TextField
          label={t('eventForm.endDateLabel')}
          type="date"
          error={errors.endDate?.message}
          {...register('endDate', { onChange: () => recheck('eventDate') })}
        />
        <TextField
          label={t('eventForm.eventDateLabel')}
          type="date"
          error={errors.eventDate?.message}
          {...register('eventDate')}
        />
      </fieldset>

      {/* Text, not type=time: a time input follows the browser's locale (AM/PM in en-US), the spec wants 24-hour HH:MM. */}
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="sr-only">{t('eventForm.times')}</legend>
        <TextField
          label={t('eventForm.startTimeLabel')}
          placeholder={t('eventForm.timePlaceholder')}
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          error={errors.startTime?.message}
          {...register('startTime')}
        />
        <TextField
          label={t('eventForm.endTimeLabel')}
          placeholder={t('eventForm.timePlaceholder')}
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          error={errors.endTime?.message}
          {...register('endTime')}
        />
      </fieldset>

      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="mb-3 text-base font-semibold">{t('eventForm.refundPolicy')}</legend>
        <TextField
          label={t('eventForm.refundHoursLabel')}
          inputMode="numeric"
          autoComplete="off"
          error={errors.refundHours?.message}
          hint={<p className="text-xs text-fg-muted">{t('eventForm.refundHoursHint')}</p>}
          {...register('refundHours')}
        />
        <TextField
          label={t('eventForm.cancellationFeeLabel')}
          inputMode="numeric"
          autoComplete="off"
          error={errors.cancellationFee?.message}
          hint={<p className="text-xs text-fg-muted">{t('eventForm.cancellationFeeHint')}</p>}
          {...register('cancellationFee')}
        />
      </fieldset>

      <TextAreaField
        label={t('eventForm.descriptionLabel')}
        rows={6}
        error={errors.description?.message}
        {...register('description')}
      />

      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink to="/admin" variant="secondary">
          {t('eventForm.cancel')}
        </ButtonLink>
        <Button type="submit" disabled={saving} className="min-w-36">
          {saving ? <Spinner label={t('eventForm.saving')} /> : null}
          {t(isEdit ? 'eventForm.saveChanges' : 'eventForm.create')}
        </Button>
      </div>
    </form>
  );
}
