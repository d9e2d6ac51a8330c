// A tiny bounded pool: at most `limit` tasks in flight, started in submission order.
// Hooks for one event run concurrently, but a config with 200 hooks must not fork 200 processes at once.

export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(limit: number): Limiter {
  const max = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : 1;
  let active = 0;
  const queue: (() => void)[] = [];
  const next = (): void => {
    if (active >= max) return;
    const start = queue.shift();
    if (start) start();
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = (): void => {
        active++;
        let settled: Promise<T>;
        try {
          settled = task();
        } catch (e) {
          settled = Promise.reject(e);
        }
        settled.then(resolve, reject).finally(() => {
          active--;
          next();
        });
      };
      queue.push(start);
      next();
    });
}
