import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import { detailsOf, proposalFailureKey } from './proposal-failure';

describe('proposal failures', () => {
  it('says which part failed for every code a proposal answers with', () => {
    expect(proposalFailureKey('BENCHMARK_CONFIG_INVALID', { field: 'provider_id' })).toBe(
      'bench.propose.error.model',
    );
    expect(proposalFailureKey('BENCHMARK_CONFIG_INVALID', { field: 'limit' })).toBe(
      'bench.propose.error.config',
    );
    expect(proposalFailureKey('RESOURCE_NOT_FOUND', { note_id: 'n1' })).toBe('bench.propose.error.noteGone');
    expect(proposalFailureKey('BENCHMARK_RUN_FAILED', { reason: 'invalid_answer' })).toBe(
      'bench.propose.error.invalidAnswer',
    );
    expect(proposalFailureKey('BENCHMARK_RUN_FAILED', { reason: 'PROVIDER_AUTH_FAILED' })).toBe(
      'bench.propose.error.failed',
    );
    expect(proposalFailureKey('STATE_CONFLICT', {})).toBe('bench.propose.error.conflict');
    expect(proposalFailureKey('INTERNAL_ERROR', {})).toBeNull();
  });

  it('reads the details an error kept across the worker, and none from anything else', () => {
    expect(detailsOf(new AppError('BENCHMARK_RUN_FAILED', 'x', { reason: 'invalid_answer' }))).toEqual({
      reason: 'invalid_answer',
    });
    expect(detailsOf(new Error('plain'))).toEqual({});
    expect(detailsOf(null)).toEqual({});
  });
});
