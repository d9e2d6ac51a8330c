// Pure resolution: ordered Directives → Decision.

export { resolve } from './resolve.js';
