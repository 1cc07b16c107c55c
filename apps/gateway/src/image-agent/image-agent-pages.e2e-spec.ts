import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import { launchImageAgent, type TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';
import { tokenOf, usePreviewsApp } from '../previews/previews.spec-helper';

const GEMINI_KEY = 'AIzaSy-ImageAgentTestKey-0123456789abcdef';

describe('live previews', () => {
  const { app } = usePreviewsApp();
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(() => {
    ({ llm, t, alice, bob } = app);
  });

  describe('image agent', () => {
    it("writes links from PUBLIC_URL, never from the request's Host header", async () => {
      // Malformed hosts ('evil"quote.example', '[::1') are refused with 400 before any route.
      for (const host of ['attacker.example', 'localhost:9999']) {
        const launched = await t.http
          .post('/img/launch-streamlit-app')
          .set(alice.auth)
          .set('Host', host)
          .expect(200);
        expect(new URL(launched.body.url as string).origin).toBe(t.config.PUBLIC_URL);
      }
    });

    it('launches a page, lists the owner’s Gemini keys, generates with a typed or saved key', async () => {
      const token = tokenOf(await launchImageAgent(t.url, alice));
      const page = await t.http.get(`/p/${token}/`).expect(200);
      expect(page.text).toContain('AI Image Generation Agent');
      expect(page.text).toContain('/p/_assets/image.js');
      await t.http
        .get('/p/_assets/image.js')
        .expect(200)
        .expect('Content-Type', /javascript/);

      const saved = await t.http
        .post('/apikeys')
        .set(alice.auth)
        .send({ provider: 'gemini', key: GEMINI_KEY, name: 'Studio key' })
        .expect(201);
      const keys = await t.http.get(`/p/${token}/keys`).expect(200);
      expect(keys.body).toEqual([
        { id: saved.body.id, name: 'Studio key', masked: saved.body.key },
      ]);
      expect(JSON.stringify(keys.body)).not.toContain(GEMINI_KEY);

      const typed = await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'A lighthouse at dusk')
        .field('api_key', 'AIzaSy-TypedIntoThePage-000000000000')
        .expect(200);
      const png = Buffer.from(typed.body.images[0].data as string, 'base64');
      expect(typed.body.images[0].media_type).toBe('image/png');
      expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      expect(llm.requests.at(-1)?.headers['x-goog-api-key']).toBe(
        'AIzaSy-TypedIntoThePage-000000000000',
      );

      const edited = await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'Make the sky purple')
        .field('api_key_id', saved.body.id as string)
        .attach('image', png, { filename: 'lighthouse.png', contentType: 'image/png' })
        .expect(200);
      expect(edited.body.images).toHaveLength(1);
      expect(llm.requests.at(-1)?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
      expect(JSON.stringify(edited.body)).not.toContain(GEMINI_KEY);

      const noKey = await t.http.post(`/p/${token}/images`).field('prompt', 'x').expect(400);
      expect(noKey.body.detail).toBe('Set your Gemini API key first.');
      const noPrompt = await t.http.post(`/p/${token}/images`).field('prompt', '  ').expect(400);
      expect(noPrompt.body.detail).toBe('Describe the image first.');
      const untyped = await t.http.post(`/p/${token}/images`).send({}).expect(400);
      expect(untyped.body.detail).toBe('Describe the image first.');
      // Bob's vault key id is not Alice's to use.
      await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'x')
        .field('api_key_id', '00000000-0000-4000-8000-000000000000')
        .expect(404);
    });

    it('the image page is not an agent preview, and an agent preview is not an image page', async () => {
      const token = tokenOf(await launchImageAgent(t.url, bob));
      await t.http.get(`/p/${token}/info`).expect(404);
      await t.http.post(`/p/${token}/ask`).send({ question: 'hi' }).expect(404);
      await t.http.post('/img/launch-streamlit-app').expect(401);
    });
  });
});
