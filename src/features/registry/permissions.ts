import { READ_ONLY_TOKEN, type ProjectCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

/** Deleting one tag is a Developer's right on the platform (destroy_container_image); null when allowed. */
export function tagDeleteRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (!caller.isAdmin && caller.role < AccessLevel.DEVELOPER) return 'Deleting tags needs the Developer role or higher in this project.';
  return null;
}

/** Deleting an image, a bulk tag delete and the cleanup policy are a Maintainer's (admin_container_image). */
export function maintainerRefusal(caller: ProjectCaller, what: string): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (!caller.isAdmin && caller.role < AccessLevel.MAINTAINER) return `${what} needs the Maintainer role or higher in this project.`;
  return null;
}
