/**
 * How the apps write their logs (pino, through nestjs-pino). In development — `npm start`,
 * `npm run dev` — one readable, coloured line an event (pino-pretty, in a worker thread); in
 * production and compose, and wherever LOG_FORMAT=json, one JSON object a line for log shippers.
 */
export interface LogSettings {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: string;
  LOG_FORMAT?: 'json' | 'pretty';
}

export interface LoggerOptions {
  level: string;
  transport?: { target: string; options: Record<string, unknown> };
}

export function loggerOptions(settings: LogSettings): LoggerOptions {
  const format = settings.LOG_FORMAT ?? (settings.NODE_ENV === 'development' ? 'pretty' : 'json');
  if (format === 'json') return { level: settings.LOG_LEVEL };
  return {
    level: settings.LOG_LEVEL,
    transport: {
      target: 'pino-pretty',
      options: {
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,context',
        // "[BuildRunner] Build … built": Nest's context first, then the message.
        messageFormat: '{if context}[{context}] {end}{msg}',
      },
    },
  };
}
