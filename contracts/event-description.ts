import type { EventDto } from './catalogue';
import type { I18n } from './i18n/i18n';

/**
 * An event page's meta description (search engines, link previews), shared by the page and the HTML the server
 * writes for it: when, where and by whom, then the event's own text, cut to 160 characters.
 */
export function eventDescription(
  event: Pick<EventDto, 'eventDate' | 'location' | 'host' | 'description'>,
  i18n: I18n,
): string {
  const text = i18n.t('catalogue.eventDescription', {
    date: i18n.date(event.eventDate),
    location: event.location,
    host: event.host,
    description: event.description,
  });
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}...` : text;
}
