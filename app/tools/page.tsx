/**
 * The Tools page: every tool server configured in config/mcp-servers.json (or STOCKROOM_MCP_SERVERS)
 * and the tools it lists, with their schemas and annotations, asked live. Servers come from the
 * deployment's file only; nothing the browser sends picks a command or a URL.
 */
import { requireUser } from '@/lib/auth/page-guard';
import { listConfiguredServerTools } from '@/lib/mcp/list-server-tools';

export const dynamic = 'force-dynamic';

function Json({ value }: { value: unknown }) {
  return <pre className="code">{JSON.stringify(value, null, 2)}</pre>;
}

export default async function ToolsPage() {
  await requireUser();
  const servers = await listConfiguredServerTools();
  return (
    <main className="page">
      <h1>Tools</h1>
      <p className="lede">
        The tool servers this deployment offers (config/mcp-servers.json) and what each one lists. A run can use any of them; the policy file,
        not a tool&apos;s annotations, decides which calls need approval.
      </p>
      {servers.length === 0 ? <p className="panel">No tool servers are configured.</p> : null}
      {servers.map(({ server, serverInfo, tools, error }) => (
        <section key={server.id} className="panel" aria-labelledby={`server-${server.id}`} data-testid={`tool-server-${server.id}`}>
          <h2 id={`server-${server.id}`}>
            {server.title} <small>({server.id})</small>
          </h2>
          <p>
            {server.kind === 'stdio' ? 'stdio command' : 'streamable HTTP'}: <code>{server.target}</code>
            {server.headerNames.length > 0 ? <> · headers: {server.headerNames.join(', ')} (values from the environment, not shown)</> : null}
            {serverInfo ? (
              <>
                {' '}
                · server {serverInfo.name} {serverInfo.version}
              </>
            ) : null}
          </p>
          {error ? (
            <p role="alert">Could not list this server&apos;s tools: {error}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Description</th>
                  <th scope="col">Annotations</th>
                  <th scope="col">Input schema</th>
                  <th scope="col">Output schema</th>
                </tr>
              </thead>
              <tbody>
                {tools.map((tool) => (
                  <tr key={tool.name} data-testid={`tool-${server.id}-${tool.name}`}>
                    <td>
                      <strong>{tool.name}</strong>
                      {tool.title ? <div>{tool.title}</div> : null}
                    </td>
                    <td>{tool.description ?? ''}</td>
                    <td>{tool.annotations ? <Json value={tool.annotations} /> : 'none'}</td>
                    <td>
                      <Json value={tool.inputSchema} />
                    </td>
                    <td>{tool.outputSchema ? <Json value={tool.outputSchema} /> : 'none'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </main>
  );
}
