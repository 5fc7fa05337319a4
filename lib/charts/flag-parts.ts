/**
 * What each weakness flag changes, with the environment's part, the scripted model's part and the
 * harness's part apart — a flag can change more than one thing, and "the difference is the switch" hid
 * that (issue 43). The words live in the Stockroom layer's one weakness table (lib/stockroom/weaknesses),
 * beside the switches the loop takes, so the page and the run cannot drift apart.
 */
import { WEAKNESSES, type WeaknessEntry } from '../stockroom/browser';

export type FlagParts = Pick<WeaknessEntry, 'environment' | 'model' | 'harness' | 'alone'>;

export const FLAG_PARTS: Readonly<Record<keyof typeof WEAKNESSES, FlagParts>> = WEAKNESSES;
