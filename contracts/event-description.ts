import type { EventDto } from './catalogue';
import { formatDate } from './dates';

/**
 * An event page's meta description (search engines, link previews), shared by the page and the HTML the server
 * writes for it: when, where and by whom, then the event's own text, cut to 160 characters.
 */
export function eventDescription(event: Pick<EventDto, 'eventDate' | 'location' | 'host' | 'description'>): string {
  const text = `${formatDate(event.eventDate)} at ${event.location}, hosted by ${event.host}. ${event.description}`;
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}...` : text;
}
