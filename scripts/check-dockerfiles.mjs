#!/usr/bin/env node
// Checks the images' Dockerfile (the root Dockerfile, one target per app) against the repository, for machines without
// a Docker engine (.ci/run runs it next to `docker-compose config -q`):
//  - every RUN that installs or builds is something CI runs: `npm ci`/`npm install` as .ci/run
//    installs (or its production-only variant, with the same fallback), `npm run S -w W` and
//    `npx turbo run T --filter=W` name scripts and workspaces that exist, and CI's own task graph
//    (`turbo run test typecheck`, what `npm test` and `npm run lint` run) runs W's S, or every
//    command of it;
//  - the npm version installed is package.json's "packageManager";
//  - every COPY source exists and is not excluded by .dockerignore; every workspace manifest is
//    copied before the install (npm checks them all against the lockfile); `COPY --from` copies
//    from an earlier stage, and a copied dist/ is built by that stage;
//  - each app's target stage runs as a non-root user, has a HEALTHCHECK, and its CMD starts what the
//    workspace's `start` script starts; every folder the app's code reads from next to dist/ at run
//    time (the worker's project templates, the gateway's preview assets) is in its image;
//  - docker-compose.yml builds exactly these targets, and every app with an image has one.
// It prints what it checked and exits 1 on the first run with any problem.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  commandsOf,
  dockerignoreMatcher,
  instructions,
  option,
  words,
} from './dockerfile-syntax.mjs';
import {
  ciInstalls,
  ciRuns,
  ciTaskIds,
  ciTasks,
  read,
  root,
  rootPackage,
  turboDry,
  workspaceAt,
  workspaces,
} from './repository-facts.mjs';

const problems = [];
let checks = 0;

function report(where, ok, message) {
  checks += 1;
  if (!ok) problems.push(`${where}: ${message}`);
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${message}`);
}

const ignored = dockerignoreMatcher(read('.dockerignore'));

// ---- checks ------------------------------------------------------------------------------------

/** Checks every instruction of `file`; returns its stages, for checkImage to check the targets. */
function checkDockerfile(file) {
  console.log(`\n${file}`);
  const steps = instructions(read(file));
  const args = new Map();
  const stages = []; // { name, image, parent, built: Set<workspace>, copies: [] }
  const sameAsCi = (command) => ciInstalls.includes(command);

  for (const step of steps) {
    const where = `${file}:${step.line}`;
    const stage = stages.at(-1);
    switch (step.keyword) {
      case 'ARG': {
        const [name, value] = step.args.split('=');
        args.set(name, value ?? '');
        break;
      }
      case 'FROM': {
        const [image, , name] = step.args.split(/\s+/);
        const resolved = image.replace(/\$\{(\w+)\}/g, (_, key) => args.get(key) ?? '');
        const parent = stages.find((candidate) => candidate.name === resolved);
        stages.push({
          name: name ?? `#${stages.length}`,
          image: parent ? parent.image : resolved,
          parent,
          built: new Set(parent?.built ?? []),
          copied: new Set(parent?.copied ?? []),
          from: new Set(),
          user: parent?.user ?? null,
          healthcheck: parent?.healthcheck ?? null,
          cmd: parent?.cmd ?? null,
          step,
        });
        break;
      }
      case 'COPY':
        checkCopy(where, stages, stage, words(step.args));
        break;
      case 'RUN':
        checkRun(where, stage, step.args, sameAsCi);
        break;
      case 'USER':
        stage.user = step.args.trim();
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = step.args;
        break;
      case 'CMD':
        stage.cmd = words(step.args);
        break;
      default:
        break;
    }
  }

  return stages;
}

/** A COPY: from an earlier stage (a dist/ that stage built), or from the build context. */
function checkCopy(where, stages, stage, list) {
  const from = option(list, '--from')[0];
  const sources = list.filter((word) => !word.startsWith('--')).slice(0, -1);
  if (from) {
    const source = stages.find((candidate) => candidate.name === from);
    stage.from.add(from);
    for (const item of sources) {
      const dist = item.match(/^\/app\/(.+)\/dist$/);
      const name = dist && workspaceAt(dist[1]);
      if (!dist) {
        report(where, Boolean(source), `COPY --from=${from} ${item}: an earlier stage`);
      } else {
        report(
          where,
          Boolean(source && name && source.built.has(name)),
          `COPY --from=${from} ${item}: earlier stage ${from} builds ${name ?? dist[1]}`,
        );
      }
    }
    return;
  }
  for (const item of sources) {
    const exists = existsSync(path.join(root, item));
    report(
      where,
      exists && !ignored(item),
      `COPY ${item}: ${exists ? 'exists' : 'MISSING'}${exists && ignored(item) ? ', but .dockerignore excludes it' : ', not excluded by .dockerignore'}`,
    );
    stage.copied.add(item.replace(/\/$/, ''));
  }
}

/** The image of `app`: the stage named after it, built with `docker build --target <app>`. */
function checkImage(file, stages, app) {
  console.log(`\n${file} --target ${app}`);
  const final = stages.find((stage) => stage.name === app);
  report(file, Boolean(final), `has a target stage named ${app}`);
  if (!final) return;
  const where = `${file}:${final.step.line}`;
  const unprivilegedBase = /unprivileged/.test(final.image);
  report(
    where,
    (final.user && !/^(root|0)(:|$)/.test(final.user)) || unprivilegedBase,
    `final stage runs as a non-root user (${final.user ?? `${final.image}'s own`})`,
  );
  report(where, Boolean(final.healthcheck), 'final stage has a HEALTHCHECK');
  const workspaceName = workspaceAt(`apps/${app}`);
  const startScript = workspaces.get(workspaceName)?.scripts.start ?? '';
  const cmdText = (final.cmd ?? []).join(' ');
  const main = startScript.match(/^node (\S+\.m?js)$/)?.[1];
  if (main) {
    const expected = `node apps/${app}/${main}`;
    report(
      where,
      cmdText.includes(expected),
      `CMD runs \`${expected}\`, what \`npm start -w ${workspaceName}\` runs`,
    );
  }
  for (const script of cmdText.match(/node (scripts\/\S+\.mjs)/g) ?? []) {
    const file = script.slice('node '.length);
    const npmScript = Object.entries(rootPackage.scripts).find(([, body]) => body === script);
    report(
      where,
      Boolean(npmScript) && final.copied.has(file),
      `CMD runs \`${script}\` (\`npm run ${npmScript?.[0] ?? '?'}\`), copied into the image`,
    );
  }
  for (const folder of runtimeFolders(app)) {
    report(
      where,
      final.copied.has(folder.path),
      `${folder.path} (read at run time by ${folder.by}) is copied into the final image`,
    );
  }
  const installing = stagesBehind(stages, final).find((stage) => stage.installs);
  if (installing) {
    const missing = [...workspaces.values()]
      .map((ws) => `${ws.dir}/package.json`)
      .filter((manifest) => !installing.copied.has(manifest));
    report(
      where,
      missing.length === 0,
      `every workspace manifest is copied before the install${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`,
    );
  }
}

/** The stages `final` is built from: its parents and the stages it copies from, recursively. */
function stagesBehind(stages, final) {
  const found = new Set();
  const visit = (stage) => {
    if (!stage || found.has(stage)) return;
    found.add(stage);
    visit(stage.parent);
    for (const from of stage.from) visit(stages.find((candidate) => candidate.name === from));
  };
  visit(final);
  return [...found];
}

/**
 * Folders of an app its compiled code reads at run time: `path.resolve(__dirname, '../../x')` (or
 * path.join) in a source file under src/ that lands outside src/ (so outside dist/ once built),
 * like the worker's project templates. Tests and test helpers aside.
 */
function runtimeFolders(app) {
  const src = path.join(root, 'apps', app, 'src');
  const found = new Map();
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing') visit(file); // test helpers reach the repository root
      } else if (/\.ts$/.test(entry.name) && !/\.(e2e-)?spec\.ts$/.test(entry.name)) {
        const pattern = /path\.(?:resolve|join)\(\s*__dirname,\s*'([^']+)'\s*\)/g;
        for (const [, relative] of readFileSync(file, 'utf8').matchAll(pattern)) {
          const target = path.resolve(dir, relative);
          if (path.relative(src, target).startsWith('..')) {
            found.set(path.relative(root, target), path.relative(root, file));
          }
        }
      }
    }
  };
  visit(src);
  return [...found].map(([folder, by]) => ({ path: folder, by }));
}

/** A RUN line: each of its commands is an npm install, an npm script, a turbo task or the system's. */
function checkRun(where, stage, args, sameAsCi) {
  const commands = commandsOf(args);
  commands.forEach(({ words: list, after }, index) => {
    const [program, sub, ...rest] = list;
    const text = list.join(' ');
    const command = { where, stage, text, sub, rest };
    if (program === 'npm' && (sub === 'ci' || sub === 'install') && list.includes('-g')) {
      const wanted = rootPackage.packageManager;
      const pinned = list.find((word) => word.startsWith('npm@'));
      report(where, pinned === wanted, `\`${text}\`: package.json's packageManager (${wanted})`);
    } else if (program === 'npm' && (sub === 'ci' || sub === 'install')) {
      checkInstall(command, sameAsCi, { after, previous: commands[index - 1] });
    } else if (program === 'npm' && (sub === 'run' || sub === 'run-script')) {
      checkNpmScript(command);
    } else if ((program === 'npx' && sub === 'turbo') || program === 'turbo') {
      checkTurboRun({ ...command, rest: program === 'npx' ? rest : [sub, ...rest] });
    } else {
      console.log(`  --   \`${text}\`: system command, not a project script`);
    }
  });
}

/** `npm ci`/`npm install`: .ci/run's own, or its production-only variant for named workspaces. */
function checkInstall({ where, stage, text, sub, rest }, sameAsCi, { after, previous }) {
  stage.installs = true;
  const named = [...option(rest, '--workspace', '-w')];
  for (const name of named) {
    report(where, workspaces.has(name), `\`npm ${sub}\` --workspace ${name}: a workspace`);
  }
  const flags = rest.filter((word) => word.startsWith('--') && !word.startsWith('--workspace'));
  const base = `npm ${sub} ${flags.filter((flag) => flag !== '--omit=dev' && flag !== '--include-workspace-root').join(' ')}`;
  if (named.length === 0) {
    report(where, sameAsCi(text), `\`${text}\`: .ci/run's install`);
  } else {
    report(
      where,
      sameAsCi(base) && rest.includes('--omit=dev'),
      `\`${text}\`: .ci/run's install (\`${base}\`), production dependencies of ${named.join(', ')} only`,
    );
  }
  if (sub === 'install') {
    report(
      where,
      after === '||' &&
        previous?.words[1] === 'ci' &&
        previous.words.slice(2).join(' ') === rest.join(' '),
      `\`npm install\` only as the fallback of the same \`npm ci\`, as .ci/run does`,
    );
  }
}

/** `npm run S [-w W]`: a script that exists and that CI runs too. */
function checkNpmScript({ where, stage, text, rest }) {
  const script = rest[0];
  const name = option(rest, '--workspace', '-w')[0];
  const scripts = name ? workspaces.get(name)?.scripts : rootPackage.scripts;
  report(
    where,
    Boolean(scripts?.[script]),
    `\`${text}\`: ${name ?? 'the root'} has script "${script}"`,
  );
  if (name && scripts?.[script]) {
    const how = ciRuns(name, script);
    report(where, Boolean(how), `\`${text}\`: ${how ?? 'not something CI runs'}`);
    stage.built.add(name);
  }
}

/** `turbo run T --filter=W`: a task of turbo.json, run by CI for W; records what it builds. */
function checkTurboRun({ where, stage, text, rest: turboArgs }) {
  const [command, task] = turboArgs;
  const filters = option(turboArgs, '--filter');
  const turbo = JSON.parse(read('turbo.json'));
  report(
    where,
    command === 'run' && Boolean(turbo.tasks[task]),
    `\`${text}\`: turbo.json has task "${task}"`,
  );
  for (const name of filters) {
    const has = Boolean(workspaces.get(name)?.scripts[task]);
    report(where, has, `\`${text}\`: ${name} is a workspace with script "${task}"`);
    if (has) {
      report(
        where,
        ciTaskIds.has(`${name}#${task}`),
        `\`${text}\`: CI runs ${name}#${task} (turbo task graph)`,
      );
    }
  }
  // What the command builds: the filtered workspaces and what their task depends on.
  for (const planned of turboDry([task, ...filters.map((name) => `--filter=${name}`)])) {
    if (planned.command !== '<NONEXISTENT>') stage.built.add(planned.workspace);
  }
}

// ---- run ---------------------------------------------------------------------------------------

console.log('Checking the Dockerfiles against the repository (no Docker engine needed).');
console.log(`CI's task graph (turbo run test typecheck): ${ciTasks.length} tasks.`);
console.log(
  `CI's install (.ci/run): ${ciInstalls.map((command) => `\`${command}\``).join(' || ')}.`,
);

// One Dockerfile at the root, one target stage per app that has an image.
const DOCKERFILE = 'Dockerfile';
const stages = checkDockerfile(DOCKERFILE);
const images = readdirSync(path.join(root, 'apps')).filter((app) =>
  stages.some((stage) => stage.name === app),
);
for (const app of images) checkImage(DOCKERFILE, stages, app);

console.log('\ndocker-compose.yml');
const builds = [
  ...read('docker-compose.yml').matchAll(
    /^\s+build:\s*\n\s+context:\s*(\S+)\s*\n\s+dockerfile:\s*(\S+)\s*\n\s+target:\s*(\S+)\s*$/gm,
  ),
].map(([, context, dockerfile, target]) => ({ context, dockerfile, target }));
const composeBuilds = (read('docker-compose.yml').match(/^\s+build:/gm) ?? []).length;
report(
  'docker-compose.yml',
  builds.length === composeBuilds,
  `every build names context, dockerfile and target (${builds.length} of ${composeBuilds})`,
);
// Every app that can be started (a `start` script) is a service, so it needs an image.
for (const [name, workspace] of workspaces) {
  const app = workspace.dir.replace(/^apps\//, '');
  if (app === workspace.dir || !workspace.scripts.start) continue;
  report('docker-compose.yml', images.includes(app), `${DOCKERFILE} has an image for ${name}`);
}
for (const app of images) {
  report(
    'docker-compose.yml',
    builds.some((build) => build.target === app),
    `builds --target ${app}`,
  );
}
for (const build of builds) {
  report(
    'docker-compose.yml',
    build.context === '.' && build.dockerfile === DOCKERFILE && images.includes(build.target),
    `build ${build.dockerfile} --target ${build.target} (context ${build.context}): a target of ${DOCKERFILE}`,
  );
}

console.log(`\n${checks} checks, ${problems.length} problems.`);
if (problems.length > 0) {
  for (const problem of problems) console.error(`problem: ${problem}`);
  process.exit(1);
}
