/**
 * An evaluator's stdout or stderr, kept up to a cap: the END is kept, because that is where an
 * evaluator that logs as it goes prints its one JSON line, and where a failing program's last
 * words are. Everything is read (the evaluator never stalls on a full pipe) and what falls off the
 * start is counted.
 */
export class TailBytes {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes read and dropped from the start. */
  dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    if (this.max <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const part = chunk.length > this.max ? chunk.subarray(chunk.length - this.max) : chunk;
    this.dropped += chunk.length - part.length;
    this.chunks.push(part);
    this.kept += part.length;
    while (this.kept > this.max) {
      const first = this.chunks[0]!;
      const over = this.kept - this.max;
      if (first.length <= over) {
        this.chunks.shift();
        this.kept -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.kept -= over;
        this.dropped += over;
      }
    }
  }

  /** The kept bytes as text; a character cut in half at the start is left out. */
  text(): string {
    let buf = Buffer.concat(this.chunks);
    if (this.dropped > 0) {
      let skip = 0;
      // UTF-8 continuation bytes are 10xxxxxx.
      while (skip < buf.length && skip < 4 && (buf[skip]! & 0xc0) === 0x80) skip++;
      buf = buf.subarray(skip);
    }
    return buf.toString('utf8');
  }
}
