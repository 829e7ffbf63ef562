import { useParams } from 'react-router';
import { CheckInEvents } from '../components/check-in-events';
import { EventScanner } from '../components/event-scanner';

/**
 * The door's two pages, one module: /admin/check-in (choose the event) and /admin/event/:id/check-in (its
 * scanner). One chunk for both keeps the first load's route table one chunk name shorter (the home page's
 * budget), and the scanner is there at once when an event is chosen.
 */
export function CheckInRoute() {
  const { id } = useParams();
  return id ? <EventScanner key={id} id={id} /> : <CheckInEvents />;
}
