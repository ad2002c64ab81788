/**
 * The signal that starts and stops the CPU profile hook. SIGURG is ignored by default, and unlike
 * SIGUSR2 it is not one of the signals Nest's `enableShutdownHooks()` turns into a shutdown.
 */
export const PROFILE_SIGNAL = 'SIGURG';
