// Who holds a loopback TCP port, and which user a uid is. A TCP port has no owner check on the
// connecting side: whoever binds 127.0.0.1:8765 first answers every http hook Claude Code sends
// there (and reads its bearer token). doctor --agent and `serve --http` say who that is.
// Linux only (/proc/net/tcp and tcp6, their LISTEN rows and uid column); elsewhere: unknown (null).

import { readFileSync } from 'node:fs';

export interface PortListener {
  /** The local address it listens on, as printed (127.0.0.1, 0.0.0.0, ::1, ::). */
  address: string;
  uid: number;
  /** The user name of `uid` (/etc/passwd), when there is one. */
  user: string | null;
}

const LISTEN = '0A';

/** An IPv4 address from /proc's hex (the kernel prints the 32-bit word in host order: little-endian here). */
function ipv4(hex: string): string {
  const n = Number.parseInt(hex, 16);
  const bytes = [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
  return (isLittleEndian() ? bytes : bytes.reverse()).join('.');
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}

/** An IPv6 address from /proc's 32 hex digits (four 32-bit words, each in host order), in short form. */
function ipv6(hex: string): string {
  const words: string[] = [];
  for (let w = 0; w < 4; w++) {
    const v4 = ipv4(hex.slice(w * 8, w * 8 + 8))
      .split('.')
      .map(Number);
    words.push(((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16));
  }
  const text = words.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  const mapped = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(text);
  if (mapped) {
    const hi = Number.parseInt(mapped[1]!, 16);
    const lo = Number.parseInt(mapped[2]!, 16);
    return `::ffff:${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return text;
}

/** An address a connection to the loopback reaches: loopback itself or a wildcard. */
function reachesLoopback(address: string): boolean {
  return /^127\./.test(address) || address === '0.0.0.0' || address === '::' || address === '::1' || /^::ffff:(127\.|0\.0\.0\.0$)/.test(address);
}

/** The LISTEN rows of one /proc/net/tcp{,6} text on `port` that a loopback connection reaches (pure). */
export function parseProcNetTcp(text: string, port: number): { address: string; uid: number }[] {
  const out: { address: string; uid: number }[] = [];
  for (const line of text.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
    const cols = line.trim().split(/\s+/);
    const local = cols[1];
    if (local === undefined || cols[3] !== LISTEN || cols[7] === undefined) continue;
    const [addr, portHex] = local.split(':');
    if (addr === undefined || portHex === undefined || Number.parseInt(portHex, 16) !== port) continue;
    const address = addr.length === 32 ? ipv6(addr) : ipv4(addr);
    if (reachesLoopback(address)) out.push({ address, uid: Number(cols[7]) });
  }
  return out;
}

/** Who listens on `port` where a loopback connection reaches; null when this system cannot say (no /proc/net/tcp). */
export function portListeners(port: number): PortListener[] | null {
  let v4: string;
  try {
    v4 = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return null;
  }
  let v6 = '';
  try {
    v6 = readFileSync('/proc/net/tcp6', 'utf8');
  } catch {
    // no IPv6
  }
  return [...parseProcNetTcp(v4, port), ...parseProcNetTcp(v6, port)].map((l) => ({ ...l, user: userName(l.uid) }));
}

/** The name /etc/passwd gives `uid`, or null. */
export function userName(uid: number): string | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length > 2 && f[2] === String(uid)) return f[0] || null;
    }
  } catch {
    // no passwd file
  }
  return null;
}

/** `uid 1002 (mallory)`, or `uid 1002`. */
export function whoIs(uid: number, user: string | null = userName(uid)): string {
  return user === null ? `uid ${uid}` : `uid ${uid} (${user})`;
}

/** A listener that belongs to neither `me` nor root: another user answering on the port. */
export function foreignListener(listeners: readonly PortListener[], me: number): PortListener | undefined {
  return listeners.find((l) => l.uid !== me && l.uid !== 0);
}
