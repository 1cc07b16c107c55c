import { generateProject } from '.';
import {
  pandasaiInput,
  ragInput,
  sqlInput,
  text,
  useSourceCsv,
} from './generate-project.spec-helper';

useSourceCsv();

describe('generateProject', () => {
  it('builds a non-root image with a health check on the UI port', async () => {
    const streamlit = text(await generateProject(ragInput()), 'Dockerfile');
    expect(streamlit).toMatch(/^FROM python:3\.11-slim$/m);
    expect(streamlit).toMatch(/^USER agent$/m);
    expect(streamlit).toContain('http://127.0.0.1:8501/_stcore/health');
    expect(streamlit).toMatch(/^CMD \["streamlit", "run", "app.py", .*"--server.port=8501"\]$/m);

    const gradio = text(await generateProject(sqlInput()), 'Dockerfile');
    expect(gradio).toMatch(/^FROM python:3\.11-slim$/m);
    expect(gradio).toContain('http://127.0.0.1:7860/');
    expect(gradio).toMatch(/^EXPOSE 7860$/m);
    // The code stays root's; a RAG agent may write its index records, and nothing else.
    expect(gradio).not.toMatch(/chown/);
    expect(gradio).toMatch(/^COPY \. \.\nUSER agent$/m);
    expect(streamlit).toMatch(
      /^COPY \. \.\n#.*\n#.*\nRUN mkdir -p \.agent-index && chown agent \.agent-index\nUSER agent$/m,
    );
  });

  it('installs from the lock without PyTorch, the local model before the code (issue 43, item 10)', async () => {
    const local = text(await generateProject(ragInput()), 'Dockerfile');
    // One base for every host: ONNX Runtime has wheels for amd64 and arm64 alike.
    expect(local).toMatch(/^FROM python:3\.11-slim$/m);
    expect(local).toContain('RUN pip install --require-hashes -r requirements.lock');
    expect(local).not.toMatch(/pytorch|torch|SentenceTransformer/);
    // The model's layer comes before the code's, so a code edit does not download it again;
    // only agent.json and the loader, which imports nothing else of the agent, are in it.
    expect(local).toContain(
      'COPY agent.json .\nCOPY agent/local_model.py agent/local_model.py\nUSER agent\n' +
        'RUN python agent/local_model.py\nUSER root',
    );
    expect(local.indexOf('RUN python agent/local_model.py')).toBeLessThan(
      local.indexOf('COPY . .'),
    );

    const api = text(await generateProject(sqlInput()), 'Dockerfile');
    expect(api).not.toMatch(/pytorch|torch|local_model/);
    expect(api).toContain('RUN pip install --require-hashes -r requirements.lock');
  });

  it('lets a PandasAI agent write its charts, and nothing else', async () => {
    const dockerfile = text(await generateProject(pandasaiInput()), 'Dockerfile');
    // After the code is copied in as root, before the unprivileged user takes over.
    expect(dockerfile).toMatch(
      /^COPY \. \.\n#.*\nRUN mkdir -p exports\/charts && chown agent exports\/charts\nUSER agent$/m,
    );
  });

  // Issue 43, item 12: in the container, 127.0.0.1 is the container itself.
  it('says how the agent in Docker reaches a database on this machine, when a source is one', async () => {
    const files = await generateProject(sqlInput());
    const readme = text(files, 'README.md');
    const docker = readme.slice(
      readme.indexOf('## Run it with Docker'),
      readme.indexOf('## Run it without Docker'),
    );
    expect(docker).toMatch(/Write `host\.docker\.internal` in their place in the database URL/);
    expect(docker).toContain('`extra_hosts: host-gateway`');
    expect(text(files, 'docker-compose.yml')).toContain("- 'host.docker.internal:host-gateway'");
    expect(text(files, '.env.example')).toMatch(
      /^# Connection URL of the Postgres source\. .*this machine is host\.docker\.internal\.$/m,
    );

    const fileSource = text(await generateProject(ragInput()), 'README.md');
    expect(fileSource).not.toContain('host.docker.internal');
  });
});
