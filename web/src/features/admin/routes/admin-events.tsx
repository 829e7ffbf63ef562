import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { EventDto } from '../../../../../contracts/catalogue';
import { ADMIN_EVENTS_PAGE_SIZE, ADMIN_LOADING_MS } from '../../../../../contracts/constants';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { withElements } from '../../../lib/rich-text';
import { useCancelEvent } from '../api/cancel-event';
import { useDeleteEvent } from '../api/delete-event';
import { getAdminEventsQueryOptions, useAdminEvents } from '../api/get-admin-events';
import { EventsTable } from '../components/events-table';
import { EventsTableSkeleton } from '../components/events-table-skeleton';
import { useListSearch } from '../components/use-list-search';

/**
 * The message 'Confirm Deletion: Are you sure you want to delete this item?' is one sentence: its lead-in
 * (colon kept) names the dialog, the question describes it, and both show together as that one text.
 */
function splitAfter(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at + separator.trimEnd().length), text.slice(at + separator.length)];
}

/** True once `ms` have passed since the page opened: the spec's loading placeholder shows about that long. */
function useMinimumDelay(ms: number): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setDone(true), ms);
    return () => window.clearTimeout(timer);
  }, [ms]);
  return done;
}

export function AdminEventsRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('admin.listTitle'));
  const [confirmTitle, confirmQuestion] = splitAfter(t('admin.confirmDeletion'), ': ');
  const { q, page, search, setSearch, go } = useListSearch();
  const searchId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const delayDone = useMinimumDelay(ADMIN_LOADING_MS);

  const listParams = { q, page };
  const listKey = getAdminEventsQueryOptions(listParams).queryKey;
  const { data, isPending, isError, refetch, isFetching } = useAdminEvents(listParams);
  const remove = useDeleteEvent(listKey);
  const [pendingDelete, setPendingDelete] = useState<EventDto | null>(null);
  const cancelEvent = useCancelEvent();
  const [pendingCancel, setPendingCancel] = useState<EventDto | null>(null);
  // After a confirmed cancel the row's Cancel button goes away (a cancelled event has none): focus the heading.
  const cancelConfirmedRef = useRef(false);
  // After a confirmed delete the row (and the button that opened the dialog) goes away: focus the heading.
  const confirmedRef = useRef(false);
  // Set while a delete that empties this page runs: the list goes to page 1 then (e2e/admin.spec.ts 'deleting the
  // only row of a later page goes back to page 1'), and the refetch
  // (which may find this page past the end) must not send it to the last page instead.
  const toFirstPage = useRef(false);

  // A page past the end (after deletions elsewhere, or a hand-typed URL) shows the last page instead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the loaded page count only
  useEffect(() => {
    if (toFirstPage.current) return;
    if (data && !isFetching && data.pageCount > 0 && page > data.pageCount) go({ page: data.pageCount }, true);
  }, [data, isFetching, page]);

  useEffect(() => {
    if (page === 1) toFirstPage.current = false;
  }, [page]);

  function confirmDelete() {
    const event = pendingDelete;
    if (!event) return;
    confirmedRef.current = true;
    setPendingDelete(null);
    toFirstPage.current = (data?.items.length ?? 0) <= 1 && page !== 1;
    remove.mutate(event.id, {
      onSuccess: () => {
        toast.success(t('admin.deleted'));
        if (toFirstPage.current) go({ page: 1 });
      },
      onError: (error) => {
        toFirstPage.current = false;
        // (An ended session is not: the app is moving to /login and says why, web/src/app/session-end.ts.)
        if (!isSessionEnded(error)) toast.error(t('admin.deleteFailed'));
      },
    });
  }

  function confirmCancel() {
    const event = pendingCancel;
    if (!event) return;
    cancelConfirmedRef.current = true;
    setPendingCancel(null);
    cancelEvent.mutate(event.id, {
      onSuccess: ({ refunds }) => {
        toast.success(refunds > 0 ? t('admin.eventCancelledRefunds', { count: refunds }) : t('admin.eventCancelled'));
      },
      onError: (error) => {
        if (isSessionEnded(error)) return;
        // The server's reason in the page's language (already cancelled, deleted…), else the generic failure.
        toast.error(error instanceof ApiError && error.status > 0 ? error.message : t('admin.cancelEventFailed'));
      },
    });
  }

  const showSkeleton = !delayDone || isPending;
  const pageCount = data?.pageCount ?? 0;

  // Next onto the last page (or Previous onto the first) disables the button that has the focus: the focus
  // moves to the other one, still in the pager, instead of dropping to the start of the page.
  // Which one is decided on the click, from the page asked for, and done once that page is shown: not from the
  // used button's state after the change, which the render that shows the page may not have set yet.
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const focusOnPage = useRef<{ page: number; button: 'previous' | 'next' } | null>(null);
  useEffect(() => {
    const pending = focusOnPage.current;
    if (pending?.page !== page) return;
    focusOnPage.current = null;
    (pending.button === 'previous' ? previousRef.current : nextRef.current)?.focus();
  }, [page]);
  function turnPage(next: number) {
    const atEnd = next >= pageCount ? 'previous' : next <= 1 ? 'next' : null;
    focusOnPage.current = atEnd && pageCount > 1 ? { page: next, button: atEnd } : null;
    go({ page: next });
  }

  return (
    <PageContainer className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 ref={headingRef} tabIndex={-1} data-route-focus className="text-3xl font-bold">
          {t('admin.listTitle')}
        </h1>
        <ButtonLink to="/admin/event/new">{t('admin.addEvent')}</ButtonLink>
      </div>

      <div className="flex flex-col gap-1.5 sm:max-w-sm">
        <label htmlFor={searchId} className="text-sm font-medium">
          {t('admin.searchLabel')}
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('admin.searchPlaceholder')}
          maxLength={100}
          autoComplete="off"
          className="h-11 w-full rounded-lg border border-border bg-surface px-3 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none"
        />
      </div>

      {showSkeleton ? (
        <EventsTableSkeleton />
      ) : isError && !data ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-6">
          <p>{t('common.somethingWentWrong')}</p>
          <Button variant="secondary" onClick={() => refetch()}>
            {t('admin.tryAgain')}
          </Button>
        </div>
      ) : data && data.items.length === 0 ? (
        <p className="rounded-xl border border-border p-10 text-center text-lg text-fg-muted">{t('admin.empty')}</p>
      ) : data ? (
        <EventsTable
          events={data.items}
          firstNumber={(data.page - 1) * ADMIN_EVENTS_PAGE_SIZE + 1}
          onDelete={(event) => {
            confirmedRef.current = false;
            setPendingDelete(event);
          }}
          onCancel={(event) => {
            cancelConfirmedRef.current = false;
            setPendingCancel(event);
          }}
        />
      ) : null}

      {!showSkeleton && pageCount > 1 ? (
        <nav aria-label={t('admin.pagination')} className="flex items-center justify-center gap-4">
          <Button
            ref={previousRef}
            variant="secondary"
            size="sm"
            disabled={page <= 1}
            onClick={() => turnPage(page - 1)}
          >
            {t('admin.previous')}
          </Button>
          <span className="text-sm text-fg-muted" aria-live="polite">
            {t('admin.pageOf', { page: Math.min(page, pageCount), pages: pageCount })}
          </span>
          <Button
            ref={nextRef}
            variant="secondary"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => turnPage(page + 1)}
          >
            {t('admin.next')}
          </Button>
        </nav>
      ) : null}

      <ConfirmDialog
        open={pendingDelete !== null}
        title={confirmTitle}
        description={confirmQuestion}
        inlineTitle
        confirmLabel={t('admin.delete')}
        cancelLabel={t('admin.cancel')}
        onConfirm={confirmDelete}
        onCancel={() => {
          confirmedRef.current = false;
          setPendingDelete(null);
        }}
        returnFocus={() => (confirmedRef.current ? headingRef.current : null)}
      />

      <ConfirmDialog
        open={pendingCancel !== null}
        title={t('admin.confirmCancelEventTitle')}
        description={withElements(t('admin.confirmCancelEvent'), { title: <bdi>{pendingCancel?.title}</bdi> })}
        confirmLabel={t('admin.cancelEvent')}
        cancelLabel={t('admin.keepEvent')}
        onConfirm={confirmCancel}
        onCancel={() => {
          cancelConfirmedRef.current = false;
          setPendingCancel(null);
        }}
        returnFocus={() => (cancelConfirmedRef.current ? headingRef.current : null)}
      />
    </PageContainer>
  );
}
