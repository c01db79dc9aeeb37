// eventd.log lines in the reference's logging format ("<asctime> <logger> <LEVEL> <message>",
// asctime = "YYYY-MM-DD HH:MM:SS,mmm" wall clock): the trace viewer scrapes these lines
// (docs/daemon.md, "Logs"), so the key phrases are kept verbatim.
import { appendFileSync } from 'node:fs';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
export type LogSink = (line: string) => void;

function asctime(d = new Date()): string {
  const iso = d.toISOString(); // 2025-10-09T09:00:00.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)},${iso.slice(20, 23)}`;
}

export class DaemonLog {
  constructor(
    private readonly sink: LogSink | null,
    private readonly logger = 'gaia2.eventd',
  ) {}

  static toFile(path: string): DaemonLog {
    return new DaemonLog((line) => appendFileSync(path, line + '\n'));
  }

  static toStderr(): DaemonLog {
    return new DaemonLog((line) => process.stderr.write(line + '\n'));
  }

  log(level: LogLevel, message: string): void {
    if (!this.sink) return;
    try {
      this.sink(`${asctime()} ${this.logger} ${level} ${message}`);
    } catch {
      // Logging must never take the daemon down.
    }
  }

  info(m: string): void {
    this.log('INFO', m);
  }
  warn(m: string): void {
    this.log('WARNING', m);
  }
  error(m: string): void {
    this.log('ERROR', m);
  }
}
