export const adminMessages = {
  listTitle: 'Event List',
  mailboxTitle: 'Mailbox',
  empty: 'There is no Events',
  confirmDeletion: 'Confirm Deletion: Are you sure you want to delete this item?',
  deleted: 'Event deleted successfully',
  deleteFailed: 'Failed to delete event',
  added: 'Event added successfully',
  addFailed: 'Failed to add event',
  edited: 'Event edited successfully',
  editFailed: 'Failed to edit event',
} as const;
