/**
 * Ready-to-paste calls of a published agent, with its own address and id: the person replaces
 * only the access key placeholder (or has it filled in when they just made a key).
 */
export const KEY_PLACEHOLDER = 'al_YOUR_ACCESS_KEY';

export type CodeExample = { id: 'curl' | 'python' | 'javascript'; title: string; code: string };

/** The OpenAI-compatible base URL of the gateway that serves `apiUrl` (…/agents/{id}/chat). */
export const openAiBaseUrl = (apiUrl: string) => apiUrl.replace(/\/agents\/[^/]+\/chat$/, '/v1');

export function codeExamples(
  apiUrl: string,
  agentId: string,
  key = KEY_PLACEHOLDER,
): CodeExample[] {
  const question = 'What are your opening hours?';
  const v1 = openAiBaseUrl(apiUrl);
  return [
    {
      id: 'curl',
      title: 'curl',
      code: [
        `curl -X POST ${apiUrl} \\`,
        `  -H "Authorization: Bearer ${key}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"message": "${question}"}'`,
      ].join('\n'),
    },
    {
      id: 'python',
      title: 'Python (openai)',
      code: [
        '# pip install openai',
        'from openai import OpenAI',
        '',
        `client = OpenAI(base_url="${v1}", api_key="${key}")`,
        'reply = client.chat.completions.create(',
        `    model="${agentId}",`,
        `    messages=[{"role": "user", "content": "${question}"}],`,
        ')',
        'print(reply.choices[0].message.content)',
      ].join('\n'),
    },
    {
      id: 'javascript',
      title: 'JavaScript',
      code: [
        `const response = await fetch('${apiUrl}', {`,
        "  method: 'POST',",
        '  headers: {',
        `    Authorization: 'Bearer ${key}',`,
        "    'Content-Type': 'application/json',",
        '  },',
        `  body: JSON.stringify({ message: '${question}' }),`,
        '});',
        'const { answer } = await response.json();',
        'console.log(answer);',
      ].join('\n'),
    },
  ];
}
