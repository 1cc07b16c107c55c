import { withoutCredentials } from './url-credentials';

describe('withoutCredentials', () => {
  it.each([
    // The probe's vector store URL (issue 42, finding 7).
    [
      'http://admin:S3cretVecPass@qdrant.internal:6333/?api_key=QDRANT-SECRET-123',
      'http://qdrant.internal:6333/',
    ],
    ['https://TOKEN123@chroma.example.com/', 'https://chroma.example.com/'],
    ['http://u:p@ss@host:6333/path?x=1', 'http://host:6333/path?x=1'],
    [
      'https://h/?Token=a&X-Amz-Signature=b&x-amz-security-token=c&client_secret=d&apiKey=e&keep=1',
      'https://h/?keep=1',
    ],
    ['https://h/?pwd=a&passwd=b&sig=c&auth=d&credentials=e#frag', 'https://h/#frag'],
    ['http://chroma:8000', 'http://chroma:8000'],
    ['./.qdrant', './.qdrant'],
  ])('strips %s to %s', (url, expected) => {
    const stripped = withoutCredentials(url, { keepUser: false });
    expect(stripped.url).toBe(expected);
    expect(stripped.removed).toBe(url !== expected);
  });

  it.each([
    [
      'postgresql://reader:S3cret@db.example.com:5432/shop',
      'postgresql://reader@db.example.com:5432/shop',
    ],
    [
      'postgresql://reader@db.example.com/shop?sslmode=require&password=S3cret',
      'postgresql://reader@db.example.com/shop?sslmode=require',
    ],
    [
      'mongodb://app:S3cret@h1:27017,h2:27017/shop?authSource=admin&authMechanism=SCRAM-SHA-256',
      'mongodb://app@h1:27017,h2:27017/shop?authSource=admin&authMechanism=SCRAM-SHA-256',
    ],
    ['mysql://reader@db/shop', 'mysql://reader@db/shop'],
  ])('keeps the user of a database URI: %s', (uri, expected) => {
    const stripped = withoutCredentials(uri, { keepUser: true });
    expect(stripped.url).toBe(expected);
    expect(stripped.removed).toBe(uri !== expected);
  });
});
