/**
 * What `work` settles to, or what `late` gives (or throws) once `waitMs` pass first. `work`
 * settling afterwards changes nothing, and its failure then is not left unhandled.
 */
export async function within<T>(work: Promise<T>, waitMs: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, waitMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
