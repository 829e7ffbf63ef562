let signingOut = false;

/**
 * True while a sign-out is moving the visitor to /: the sign-in guards then wait instead of sending
 * the page being left to /login. (Its own module: the guards are part of the first load, sign-out is not.)
 */
export function isSigningOut(): boolean {
  return signingOut;
}

export function setSigningOut(value: boolean): void {
  signingOut = value;
}
