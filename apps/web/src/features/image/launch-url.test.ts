import { describe, expect, it } from 'vitest';
import { INVALID_URL, isLaunchUrl, launchUrlProblem, URL_NOT_AVAILABLE } from './launch-url';

describe('image agent launch URL', () => {
  it('accepts http and https URLs', () => {
    expect(isLaunchUrl('http://localhost:8501')).toBe(true);
    expect(isLaunchUrl('https://images.example.com/app')).toBe(true);
    expect(isLaunchUrl('HTTPS://EXAMPLE.COM')).toBe(true);
  });

  it('refuses anything else', () => {
    expect(isLaunchUrl('javascript:alert(1)')).toBe(false);
    expect(isLaunchUrl('ftp://example.com')).toBe(false);
    expect(isLaunchUrl('localhost:8501')).toBe(false);
    expect(isLaunchUrl('/img/app')).toBe(false);
    expect(isLaunchUrl('http://')).toBe(false);
    expect(isLaunchUrl('')).toBe(false);
    expect(isLaunchUrl(undefined)).toBe(false);
    expect(isLaunchUrl(42)).toBe(false);
  });

  it('tells a missing address from an unusable one', () => {
    expect(launchUrlProblem('http://localhost:8501')).toBeNull();
    expect(launchUrlProblem(undefined)).toBe(URL_NOT_AVAILABLE);
    expect(launchUrlProblem(null)).toBe(URL_NOT_AVAILABLE);
    expect(launchUrlProblem('')).toBe(URL_NOT_AVAILABLE);
    expect(launchUrlProblem('localhost:8501')).toBe(INVALID_URL);
    expect(launchUrlProblem(42)).toBe(INVALID_URL);
  });
});
