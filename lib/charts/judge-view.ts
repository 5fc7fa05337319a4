/** The judge page's figures in words: agreement, kappa and a calibration's time, and where the judge disagrees with the human label. */

/** A figure, or a dash when there is none. */
export const figureText = (v: number | null): string => (v === null ? '—' : String(v));

/** Cohen's kappa, or "undefined" when the labels leave it undefined (one class only). */
export const kappaText = (k: number | null): string => (k === null ? 'undefined' : String(k));

/** A stored ISO time as the page shows it: date and time to the second, a space between. */
export const whenText = (iso: string): string => iso.replace('T', ' ').slice(0, 19);

/** Whether the judge's verdict on an item differs from its human label (an unscored item does not). */
export const itemDisagrees = (item: { verdict: string | null; human: string }): boolean => item.verdict !== null && item.verdict !== item.human;
