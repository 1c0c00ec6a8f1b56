/** A problem with the command line, the environment or the config file; the message is one line for the user. */
export class CliError extends Error {}
