import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <main className="page">
      <h1>404</h1>
      <p>Oops! Page not found</p>
      <Link to="/">Return to Home</Link>
    </main>
  );
}
