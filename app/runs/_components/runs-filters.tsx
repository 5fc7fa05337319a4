/** The runs page's filter form: every filter of the runs query, applied by a client navigation (next/form). */
import Link from 'next/link';
import Form from 'next/form';
import { FiltersDisclosure } from '@/components/filters-disclosure';
import { RUN_GUARD_NAMES, TRANSPORTS } from '@/lib/harness/config';
import { TERMINATION_REASONS } from '@/lib/harness/types';
import { WEAKNESS_ORDER } from '@/lib/stockroom/browser';
import { PAGE_SIZES, activeFilters, hasFilters, type RunsQuery } from '@/lib/schemas/runs-query';
import { categoryOptions, datasetNameOptions, modelOptions } from '@/lib/charts/runs-list';

/** A filter of the runs form: a labelled select of `options` with "any" (no filter) first. */
function FilterSelect({ id, name, label, value, options }: { id: string; name: string; label: string; value: string | undefined; options: readonly string[] }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

export function RunsFilters({
  query,
  datasets,
  models,
  labelSet,
  inputError,
  evaluators = [],
  tags = [],
}: {
  query: RunsQuery;
  datasets: readonly { name: string; categories: readonly string[] }[];
  models: readonly string[];
  labelSet: { verdicts: readonly string[]; categories: readonly string[] };
  inputError: { field: string } | null;
  /** Evaluators that scored this tenant's runs (issue 37). */
  evaluators?: readonly string[];
  /** Tags of this tenant's runs, offered as the tag filter's suggestions. */
  tags?: readonly string[];
}) {
  return (
        <FiltersDisclosure active={activeFilters(query)}>
        {/* next/form: Apply is a client navigation (only the page's data is fetched), not a full reload that re-hydrates every component (issue 43: 1.6 s). */}
        <Form className="panel row" action="/runs" aria-label="Filter runs" style={{ alignItems: 'flex-end' }}>
          <div className="field">
            <label htmlFor="f-q">Text contains</label>
            <input
              id="f-q"
              name="q"
              type="search"
              defaultValue={query.q ?? ''}
              placeholder="e.g. a tracking number"
              minLength={3}
              maxLength={200}
              aria-describedby="f-q-help"
              aria-invalid={inputError?.field === 'text' ? true : undefined}
            />
            <span id="f-q-help" className="muted small">
              question, answer, tool arguments or results
            </span>
          </div>
          <FilterSelect id="f-dataset" name="dataset" label="Dataset" value={query.dataset} options={datasetNameOptions(datasets)} />
          <FilterSelect id="f-flag" name="flag" label="Flag" value={query.flag} options={WEAKNESS_ORDER} />
          <div className="field">
            <label htmlFor="f-setting">Exact setting</label>
            <input id="f-setting" name="setting" defaultValue={query.setting ?? ''} placeholder="none" size={12} />
          </div>
          <FilterSelect id="f-category" name="category" label="Category" value={query.category} options={categoryOptions(datasets)} />
          <FilterSelect id="f-termination" name="termination" label="Termination" value={query.termination} options={TERMINATION_REASONS} />
          <div className="field">
            <label htmlFor="f-case">Case id</label>
            <input id="f-case" name="caseId" defaultValue={query.caseId ?? ''} size={8} />
          </div>
          <div className="field">
            <label htmlFor="f-status">Approval</label>
            <select id="f-status" name="status" defaultValue={query.status ?? ''}>
              <option value="">any</option>
              <option value="paused">waiting for approval</option>
            </select>
          </div>
          <FilterSelect id="f-transport" name="transport" label="Transport" value={query.transport} options={TRANSPORTS} />
          <FilterSelect id="f-model" name="model" label="Model" value={query.model} options={modelOptions(models, query.model)} />
          <FilterSelect id="f-guard" name="guard" label="Guard" value={query.guard} options={RUN_GUARD_NAMES} />
          <div className="field">
            <label htmlFor="f-labelled">Labelled</label>
            <select id="f-labelled" name="labelled" defaultValue={query.labelled ?? ''}>
              <option value="">any</option>
              <option value="yes">labelled</option>
              <option value="no">not labelled</option>
            </select>
          </div>
          <FilterSelect id="f-label" name="label" label="Label" value={query.label} options={[...labelSet.verdicts, ...labelSet.categories]} />
          <div className="field">
            <label htmlFor="f-tool-error">
              <input id="f-tool-error" type="checkbox" name="toolError" value="1" defaultChecked={query.toolError === '1'} /> A tool call errored
            </label>
          </div>
          <div className="field">
            <label htmlFor="f-tainted">
              <input id="f-tainted" type="checkbox" name="tainted" value="1" defaultChecked={query.tainted === '1'} /> Tainted (read a planted instruction)
            </label>
          </div>
          <div className="field">
            <label htmlFor="f-slower">Slower than (s)</label>
            <input id="f-slower" name="slowerThan" type="number" min={0} step="any" defaultValue={query.slowerThan ?? ''} size={6} />
          </div>
          <div className="field">
            <label htmlFor="f-cost">Cost above ($)</label>
            <input id="f-cost" name="costAbove" type="number" min={0} step="any" defaultValue={query.costAbove ?? ''} size={6} />
          </div>
          <div className="field">
            <label htmlFor="f-group">
              <input id="f-group" type="checkbox" name="group" value="suite" defaultChecked={query.group === 'suite'} /> Group by suite
            </label>
          </div>
          <div className="field">
            <label htmlFor="f-session">Session</label>
            <input id="f-session" name="session" defaultValue={query.session ?? ''} placeholder="session.id" />
          </div>
          <div className="field">
            <label htmlFor="f-user">End user</label>
            <input id="f-user" name="user" defaultValue={query.user ?? ''} placeholder="user.id" />
          </div>
          <div className="field">
            <label htmlFor="f-agent">Agent</label>
            <input id="f-agent" name="agent" defaultValue={query.agent ?? ''} placeholder="agent name" size={14} aria-describedby="f-agent-help" />
            <span id="f-agent-help" className="muted small">
              exact name, e.g. stockroom
            </span>
          </div>
          <div className="field">
            <label htmlFor="f-tag">Tag</label>
            <input id="f-tag" name="tag" defaultValue={query.tag ?? ''} list="f-tag-options" size={14} maxLength={64} aria-invalid={inputError?.field === 'tag' ? true : undefined} />
            <datalist id="f-tag-options">
              {tags.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </div>
          <div className="field">
            <label htmlFor="f-multi-agent">
              <input id="f-multi-agent" type="checkbox" name="multiAgent" value="1" defaultChecked={query.multiAgent === '1'} /> Several agents
            </label>
          </div>
          <div className="field">
            <label htmlFor="f-source">Source</label>
            <select id="f-source" name="source" defaultValue={query.source ?? ''}>
              <option value="">any</option>
              <option value="harness">run here</option>
              <option value="imported">imported</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-evaluator">Scored by</label>
            <select id="f-evaluator" name="evaluator" defaultValue={query.evaluator ?? ''}>
              <option value="">any</option>
              {evaluators.map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-score-min">Score from</label>
            <input id="f-score-min" name="scoreMin" type="number" min={0} max={1} step="any" defaultValue={query.scoreMin ?? ''} size={4} />
          </div>
          <div className="field">
            <label htmlFor="f-score-max">Score to</label>
            <input id="f-score-max" name="scoreMax" type="number" min={0} max={1} step="any" defaultValue={query.scoreMax ?? ''} size={4} />
          </div>
          {query.from ? <input type="hidden" name="from" value={query.from} /> : null}
          {query.before ? <input type="hidden" name="before" value={query.before} /> : null}
          <div className="field">
            <label htmlFor="f-size">Per page</label>
            <select id="f-size" name="size" defaultValue={String(query.size)}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          {query.suite ? <input type="hidden" name="suite" value={query.suite} /> : null}
          <input type="hidden" name="sort" value={query.sort} />
          <input type="hidden" name="dir" value={query.dir} />
          <button type="submit" className="primary">
            Apply
          </button>
          {hasFilters(query) ? <Link href="/runs">Clear filters</Link> : null}
        </Form>
        </FiltersDisclosure>
  );
}
