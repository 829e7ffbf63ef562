import { catalogueMessages } from './catalogue';

/** The door's texts: check-in pages, the scanner's answers, offline scanning and the door staff page. */
export const doorMessages = {
  checkIn: catalogueMessages.checkIn,
  chooseEventTitle: catalogueMessages.checkIn,
  chooseEventIntro: 'Choose the event whose door you are keeping.',
  noEvents: 'There are no events to check in yet.',
  loadFailed: 'The events could not be loaded. Try again.',
  retry: 'Try again',
  counts: (checkedIn: number, sold: number) => `${checkedIn} of ${sold} checked in`,
  sold: 'Sold',
  checkedIn: 'Checked in',
  scannerTitle: (title: string) => `Check-in: ${title}`,
  backToEvents: 'All events',
  doorStaffLink: 'Door staff',

  ticketCode: 'Ticket code',
  ticketCodeHint: 'Type the code printed under the QR, or use a scanner that types it.',
  checkInButton: 'Check in',
  startCamera: 'Scan with the camera',
  stopCamera: 'Stop the camera',
  cameraStarting: 'Starting the camera…',
  cameraUnavailable: 'The camera could not be started. Type the ticket code instead.',
  cameraDenied: 'The camera is not allowed on this page. Type the ticket code instead.',
  cameraLabel: 'Camera view: hold a ticket’s QR code in front of it',

  admitted: 'Admitted',
  ticketOf: (number: number, of: number) => `Ticket ${number} of ${of}`,
  alreadyCheckedIn: (time: string | undefined, by: string | undefined) =>
    `Already checked in${time ? ` at ${time}` : ''}${by ? ` by ${by}` : ''}`,
  wrongEvent: 'Not valid for this event',
  void: 'Refunded or cancelled',
  unknown: 'Unknown ticket',
  refused: 'Not admitted',
  nextScan: 'Ready for the next ticket',
  dismiss: 'Next ticket',
  admittedOffline: 'Admitted offline: it will be sent when the network is back',

  offlineWaiting: (waiting: number) => `Offline — ${waiting} ${waiting === 1 ? 'scan' : 'scans'} waiting`,
  offlineNoWaiting: 'Offline — scans are checked on this device',
  syncing: (waiting: number) => `Sending ${waiting} ${waiting === 1 ? 'scan' : 'scans'}…`,
  waiting: (waiting: number) => `${waiting} ${waiting === 1 ? 'scan' : 'scans'} waiting to be sent`,
  noBundle: 'Offline, and this device has no ticket list for this event yet: connect once to download it.',
  bundleReady: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'} kept on this device for offline use`,
  scanFailed: 'The ticket could not be checked. Try again.',
} as const;
