export default function HomePage() {
  return (
    <main className="page">
      <h1>Stockroom Harness Dashboard</h1>
      <p>
        An agent harness with a deterministic model, a warehouse environment with four switchable weaknesses, and the
        tools to see what each run did and why it stopped.
      </p>
    </main>
  );
}
