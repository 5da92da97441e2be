// Types of electron-builder.config.mjs (plain JavaScript: electron-builder loads it).
import type { Configuration } from 'electron-builder';

declare const config: Configuration;
export default config;
