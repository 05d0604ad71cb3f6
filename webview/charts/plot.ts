/**
 * Owns one uPlot instance: creates it once its container has a size, follows the container's
 * size, and rebuilds it when the VS Code theme changes (canvas colours are resolved once).
 */
import uPlot from 'uplot';
import { onThemeChange } from '../theme';

let canvasOk: boolean | undefined;

/** False where there is no 2D canvas (DOMs without layout, as in unit tests): charts then show only their text. */
export function canvasSupported(): boolean {
  if (canvasOk === undefined) {
    try {
      canvasOk = document.createElement('canvas').getContext('2d') !== null;
    } catch {
      canvasOk = false;
    }
  }
  return canvasOk;
}

export type PlotOptions = Omit<uPlot.Options, 'width' | 'height'>;

export class PlotController {
  private plot: uPlot | undefined;
  private data: uPlot.AlignedData | undefined;
  private readonly resize: ResizeObserver | undefined;
  private readonly unwatchTheme: () => void;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: () => PlotOptions,
    private readonly height: number,
  ) {
    this.resize =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            this.ensure();
            const width = this.container.clientWidth;
            if (this.plot && width > 0 && width !== this.plot.width) this.plot.setSize({ width, height: this.height });
          })
        : undefined;
    this.resize?.observe(container);
    this.unwatchTheme = onThemeChange(() => this.rebuild());
  }

  /** Scales recompute from `options().scales` (their range functions) on every update. */
  update(data: uPlot.AlignedData): void {
    this.data = data;
    if (this.plot) this.plot.setData(data, true);
    else this.ensure();
  }

  rebuild(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.ensure();
  }

  dispose(): void {
    this.resize?.disconnect();
    this.unwatchTheme();
    this.plot?.destroy();
    this.plot = undefined;
  }

  get instance(): uPlot | undefined {
    return this.plot;
  }

  private ensure(): void {
    if (this.plot || !this.data || !canvasSupported()) return;
    const width = this.container.clientWidth;
    // A hidden tab has no width yet; the ResizeObserver creates the plot when it is shown.
    if (width === 0) return;
    this.plot = new uPlot({ ...this.options(), width, height: this.height }, this.data, this.container);
  }
}
