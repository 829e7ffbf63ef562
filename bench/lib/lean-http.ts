/**
 * A lean HTTP/1.1 client for the on-sale bench: one keep-alive socket per simulated buyer, one request at a
 * time, answers read by their Content-Length. The load generator shares the machine's two cores with the
 * app and PostgreSQL; node:http spends ~100 µs of CPU per request on parsing and bookkeeping the bench never
 * uses, which the app then misses. This client spends a fraction of that, so the figures describe the app.
 */
import net from 'node:net';

export interface LeanResponse {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class LeanConnection {
  private socket: net.Socket | undefined;
  private chunks: Buffer[] = [];
  private received = 0;
  private waiting: { resolve(response: LeanResponse): void; reject(error: Error): void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Sends `head` (request line and headers, without the blank line) and `body`; resolves with the answer. */
  request(head: string, body: string): Promise<LeanResponse> {
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    const socket = this.socket ?? this.connect();
    return new Promise<LeanResponse>((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = undefined;
      this.chunks = [];
      this.received = 0;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    this.socket = socket;
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    const data = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks, this.received);
    const headerEnd = data.indexOf(HEADER_END);
    if (headerEnd < 0) {
      this.chunks = [data];
      return;
    }
    const header = data.toString('latin1', 0, headerEnd);
    const match = /\r\ncontent-length:\s*(\d+)/i.exec(header);
    const status = Number(header.slice(9, 12));
    if (!match || !Number.isInteger(status)) {
      this.fail(new Error(`unsupported answer: ${header.split('\r\n')[0] ?? ''}`));
      return;
    }
    const bodyStart = headerEnd + HEADER_END.length;
    const bodyEnd = bodyStart + Number(match[1]);
    if (data.length < bodyEnd) {
      this.chunks = [data];
      return;
    }
    const body = data.toString('utf8', bodyStart, bodyEnd);
    const rest = data.subarray(bodyEnd);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.received = rest.length;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ status, body });
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.close();
    this.chunks = [];
    this.received = 0;
    waiting?.reject(error);
  }
}
