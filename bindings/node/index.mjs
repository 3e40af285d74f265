// ESM entry: the CommonJS module's exports, so both share one implementation.
import recall from './index.js';

export const { getLoadablePath, load, parameters } = recall;
