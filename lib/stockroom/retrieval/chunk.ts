/**
 * Splitting a policy document into sections (SPEC.md §5.2). The patterns are the reference's,
 * with `.` written as `[^\n]` because JavaScript's `.` also stops at CR, U+2028 and U+2029.
 */
import { pyStrip } from '../../harness';

/** One retrievable section of a policy document. */
export interface Chunk {
  /** `{doc}#{section}`, e.g. `restock_policy.md#4`. */
  chunkId: string;
  /** File name. */
  doc: string;
  /** Section number as written (`"0"` for the preamble). */
  section: string;
  title: string;
  text: string;
}

const DOC_TITLE = /^#\s+([^\n]*)$/mu;
const HEADING = /^##\s+(\p{Nd}+)\.\s*([^\n]*)$/gmu;
/** Joins the document title and a section heading (U+2014 EM DASH). */
const TITLE_SEPARATOR = ' \u2014 ';

/** Chunks one document: an optional section-0 preamble, then one chunk per `## N.` heading. */
export function chunkDocument(name: string, text: string): Chunk[] {
  const titleMatch = DOC_TITLE.exec(text);
  const docTitle = titleMatch ? pyStrip(titleMatch[1] as string) : name;
  const headings = [...text.matchAll(HEADING)];
  const chunks: Chunk[] = [];
  const make = (section: string, title: string, body: string): Chunk => ({
    chunkId: `${name}#${section}`,
    doc: name,
    section,
    title,
    text: body,
  });

  const preamble = pyStrip(text.slice(0, headings[0]?.index ?? text.length));
  if (preamble) chunks.push(make('0', docTitle, preamble));
  headings.forEach((heading, i) => {
    const start = heading.index;
    const end = headings[i + 1]?.index ?? text.length;
    const section = heading[1] as string;
    const headingText = pyStrip(heading[2] as string);
    chunks.push(make(section, `${docTitle}${TITLE_SEPARATOR}${headingText}`, pyStrip(text.slice(start, end))));
  });
  return chunks;
}

/** Chunks every document, in the given (file-name) order. */
export function chunkCorpus(docs: readonly { name: string; text: string }[]): Chunk[] {
  return docs.flatMap((doc) => chunkDocument(doc.name, doc.text));
}
