/**
 * Paints at most once a frame: a component asks for one whenever its data, size or scroll changes,
 * and every ask before the next animation frame comes to the one paint then.
 */
export function oncePerFrame(paint: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      paint();
    });
  };
}
