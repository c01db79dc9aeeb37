// The addresses a sealed container's agent may reach: the http(s) endpoints its environment names.
import { expect, it } from 'vitest';
import { sealAllowList } from '../../../runner/src/run/seal.js';

it('takes host:port of every http(s) URL once, with the scheme default port, and nothing else', () => {
  expect(
    sealAllowList({
      BASE_URL: 'http://host.containers.internal:41234/anthropic',
      GAIA2_A2A_BASE_URL: 'http://host.containers.internal:41234/openai/v1',
      JUDGE_BASE_URL: 'https://api.example.com/v1',
      PROXY: 'http://[fd00::1]/x',
      GAIA2_AGENT: 'default',
      NOTE: 'see http://not-a-url at start? no',
      BROKEN: 'http://',
    }),
  ).toEqual(['host.containers.internal:41234', 'api.example.com:443', 'fd00::1:80']);
});
