/**
 * A run's setting as a badge that may wrap only between flags and after their underscores
 * (`injection_` / `unguarded`), never inside a word: at 1400 px the runs table broke
 * "injection_unguarded" into "injectio n_ungu arded".
 */
import { Fragment } from 'react';

/** The setting's parts, each ending where a line may break (after `_`, and around ` + `). */
export function settingParts(setting: string): string[] {
  return setting.replaceAll('+', ' + ').match(/[^_ ]+_?| \+ ?|\s+/g) ?? [setting];
}

export function SettingBadge({ setting }: { setting: string }) {
  return (
    <span className="badge wraps" data-testid="setting-badge">
      {settingParts(setting).map((part, i) => (
        <Fragment key={i}>
          {part}
          <wbr />
        </Fragment>
      ))}
    </span>
  );
}
