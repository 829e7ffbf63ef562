import { Navigate, useParams } from 'react-router';
import { isUuid } from '../../../../../contracts/ids';
import { Button } from '../../../components/ui/button';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useAdminEvent } from '../api/get-admin-event';
import { useFormMeta } from '../api/get-form-meta';
import { EventForm } from '../components/event-form';

function FormSkeleton() {
  const { t } = useI18n();
  return (
    <div className="flex flex-col gap-6" aria-busy="true">
      <p role="status" className="sr-only">
        {t('eventForm.loading')}
      </p>
      <Skeleton className="aspect-video w-full max-w-xl" />
      <div className="grid gap-5 sm:grid-cols-2">
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing but their position
          <Skeleton key={i} className="h-16" />
        ))}
      </div>
      <Skeleton className="h-32" />
    </div>
  );
}

/** /admin/event/new creates, /admin/event/{id} edits. */
export function AdminEventFormRoute() {
  const { t } = useI18n();
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const valid = isNew || isUuid(id);
  const heading = t(isNew ? 'eventForm.createTitle' : 'eventForm.editTitle');
  useDocumentMeta(heading);
  const meta = useFormMeta();
  const event = useAdminEvent(id, !isNew && valid);

  // An unknown or deleted event is a missing page, as on the public event page.
  const notFound = !valid || (event.error instanceof ApiError && event.error.status === 404);
  if (notFound) return <Navigate to="/404" replace />;
  const failed = meta.isError || event.isError;

  return (
    <PageContainer className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-3xl font-bold">{heading}</h1>
      {failed ? (
        <div role="alert" className="flex flex-col items-start gap-4 rounded-xl border border-border p-6">
          <p>{t('common.somethingWentWrong')}</p>
          <Button
            variant="secondary"
            onClick={() => {
              void meta.refetch();
              if (!isNew) void event.refetch();
            }}
          >
            {t('eventForm.tryAgain')}
          </Button>
        </div>
      ) : meta.data && (isNew || event.data) ? (
        <EventForm key={id} meta={meta.data} event={isNew ? undefined : event.data} />
      ) : (
        <FormSkeleton />
      )}
    </PageContainer>
  );
}
