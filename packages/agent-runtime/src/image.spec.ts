import { inflateSync } from 'node:zlib';
import { DEFAULT_IMAGE_MODEL, generateImage } from './image';
import { solidPng, startLlmTestServer, type LlmTestServer } from './testing';

let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer();
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width, height and the colour of the first pixel, read from the PNG's own chunks. */
function readPng(data: Uint8Array) {
  const png = Buffer.from(data);
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  expect(png.toString('latin1', 37, 41)).toBe('IDAT');
  const pixels = inflateSync(png.subarray(41, 41 + idatLength));
  expect(pixels.length).toBe(height * (1 + width * 3));
  return { width, height, colour: [...pixels.subarray(1, 4)] };
}

describe('generateImage', () => {
  it('draws a PNG from a description with Gemini image output', async () => {
    const result = await generateImage({
      apiKey: 'AIza-image-test',
      prompt: 'a lighthouse at dusk',
      baseUrl: server.baseUrls.gemini,
    });

    expect(result.text).toBe('Here is an image for "a lighthouse at dusk".');
    expect(result.images).toHaveLength(1);
    expect(result.images[0]?.mediaType).toBe('image/png');
    expect(readPng(result.images[0]!.data)).toMatchObject({ width: 64, height: 64 });

    const [request] = server.requests;
    expect(request?.path).toBe(`/v1beta/models/${DEFAULT_IMAGE_MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe('AIza-image-test');
    expect(request?.body).toMatchObject({
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    });
  });

  it('edits an uploaded image: the model receives it with the description', async () => {
    const upload = solidPng(8, 8, [200, 30, 30]);
    const prompt = 'make it blue';
    const drawn = await generateImage({
      apiKey: 'AIza-x',
      prompt,
      baseUrl: server.baseUrls.gemini,
    });
    const edited = await generateImage({
      apiKey: 'AIza-x',
      prompt,
      image: { data: upload, mediaType: 'image/png' },
      baseUrl: server.baseUrls.gemini,
    });

    expect(edited.text).toBe(
      `Here is an image for "make it blue". I edited the uploaded image of ${upload.length} bytes.`,
    );
    // The server's colour depends on the uploaded bytes, so the edit differs from a fresh drawing.
    expect(readPng(edited.images[0]!.data).colour).not.toEqual(
      readPng(drawn.images[0]!.data).colour,
    );
    const parts = (server.requests[1]?.body as { contents: { parts: unknown[] }[] }).contents[0]
      ?.parts;
    expect(parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: upload.toString('base64') } },
      { text: prompt },
    ]);
  });

  it('fails clearly when the model answers without an image', async () => {
    await expect(
      generateImage({
        apiKey: 'AIza-x',
        prompt: 'a cat',
        model: 'gemini-2.0-flash',
        baseUrl: server.baseUrls.gemini,
      }),
    ).rejects.toThrow('The model answered without an image: "You said: a cat"');
  });

  it('turns a rejected key into a human message without the key', async () => {
    server.failNext(401, 'API key not valid: AIzaSyWrongWrongWrong. Please pass a valid API key.');
    const failure = generateImage({
      apiKey: 'AIzaSyWrongWrongWrong',
      prompt: 'a cat',
      baseUrl: server.baseUrls.gemini,
    });
    await expect(failure).rejects.toThrow('The provider rejected the API key (401).');
  });
});
