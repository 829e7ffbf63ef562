import { Link } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { useMailDelivery } from '../api/get-mailbox';

/**
 * Only where emails are kept instead of sent (no SMTP_URL): verification and reset links then wait in the
 * admin mailbox. With SMTP the page would show little but delivery statuses, so the header leaves it out.
 */
export function MailboxLink() {
  const { t } = useI18n();
  const { data: delivery } = useMailDelivery();
  if (delivery !== 'log') return null;
  return (
    <Link to="/admin/mailbox" className="text-sm font-medium text-fg hover:text-accent">
      {t('admin.mailboxTitle')}
    </Link>
  );
}
