/** Shared by the server's policy check and the forms' hints. */
export const MIN_PASSWORD_LENGTH = 8;
