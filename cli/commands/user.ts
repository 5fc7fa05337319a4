/** `stockroom user create …`: how every dashboard user is made (see ./admin.ts; `admin create` is the alias). */
export { userCreateCommand as command } from './admin';
