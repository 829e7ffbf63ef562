/** A kept mobile number (+201XXXXXXXXX) as Egyptians write it (01XXXXXXXXX); anything else as it is. */
export function localMobile(phone: string | null | undefined): string {
  if (!phone) return '';
  const international = /^\+20(1\d{9})$/.exec(phone);
  return international ? `0${international[1]}` : phone;
}
