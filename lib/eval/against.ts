/** The labels of a suite compared with another (instructor mode's statistics): the baseline suite's runs and the suite's own. */
export const AGAINST_BASE = 'baseline';
export const AGAINST_CURRENT = 'current';
