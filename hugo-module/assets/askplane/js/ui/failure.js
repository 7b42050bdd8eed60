// Why a backend answer failed, as the state that tells the reader.

import { STATE_BUSY, STATE_FAILED, STATE_NOSOURCES, STATE_UNREACHABLE } from './states.js';
import { UNREACHABLE } from '../runtime/net.js';

/** @typedef {import('./states.js').State} State */

/** The failure of a request that never got a response. */
export const NETWORK = 'NETWORK';

/**
 * failureState returns the state that tells the reader why the backend
 * gave no answer: failure is the backend's error code, an HTTP status
 * ("HTTP 503") or NETWORK (the request never got a response).
 * @param {string} failure
 * @returns {State}
 */
export function failureState(failure) {
  if (failure === 'ASK_NO_GROUNDED_SOURCES') return STATE_NOSOURCES;
  if (failure === 'ASK_RATE_LIMITED') return STATE_BUSY;
  if (failure === NETWORK || UNREACHABLE.test(failure.slice(5))) return STATE_UNREACHABLE;
  return STATE_FAILED;
}
