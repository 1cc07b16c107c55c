export function LandingPage() {
  return (
    <main className="page">
      <h1>Agentloom</h1>
      <p className="tagline">
        Build and deploy AI agents through an intuitive, step-by-step interface.
      </p>
      <p>The agent builder is coming soon.</p>
    </main>
  );
}
