// Where the repros load upstream from: $SYNCULAR_SRC, the packages/server/src of a checkout of
// syncular/syncular on which `bun install` has run. Nothing of upstream is in this repository.
const src = process.env.SYNCULAR_SRC;
if (!src) {
  console.error('set SYNCULAR_SRC to the packages/server/src of a checkout of syncular/syncular');
  process.exit(2);
}
export const SYNCULAR_SRC: string = src;
