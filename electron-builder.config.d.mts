// Types of electron-builder.config.mjs (plain JavaScript: electron-builder loads it).
import type { Configuration } from 'electron-builder';

export declare const DESKTOP_BUNDLES: string[];
export declare const EXCLUDED_FILES: string[];
export declare const ELECTRON_BUILDER_DEB_DEPENDS: string[];
export declare const DESK_DEB_DEPENDS: string[];
declare const config: Configuration;
export default config;
