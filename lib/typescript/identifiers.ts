// TypeScript's rules for a new name, checked before the service is asked, so a bad name is a usage error and not a broken build.
import { TugError } from '../core/errors.js';
import type { TypeScriptModule } from './load.js';

/** Throws InvalidArgument unless `name` can stand where `oldName` stood (a `#private` name stays private). */
/** Scanner helpers the compiler exports at run time but leaves out of its public types (there since 2.x). */
type Internal = { isIdentifierText(name: string, target: number): boolean; stringToToken(text: string): number | undefined };

export function assertTsName(module: TypeScriptModule, name: string, oldName: string): void {
  const ts = module as TypeScriptModule & Internal;
  const reject = (reason: string) => {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is not a valid name here: ${reason}`, { details: { argument: 'to', reason } });
  };
  const privateOld = oldName.startsWith('#');
  if (privateOld !== name.startsWith('#')) reject(privateOld ? `${oldName} is a private name; the new name starts with # too` : 'only a private class member (#name) takes a # name');
  const bare = privateOld ? name.slice(1) : name;
  if (!ts.isIdentifierText(bare, ts.ScriptTarget.ESNext)) reject('use letters, digits, _ and $, not starting with a digit');
  const token = ts.stringToToken(bare);
  // Reserved words (`class`, `delete`, `yield`…) cannot be a binding name; contextual ones (`type`, `of`, `async`) can.
  if (!privateOld && token !== undefined && token >= ts.SyntaxKind.FirstReservedWord && token <= ts.SyntaxKind.LastReservedWord) reject(`\`${bare}\` is a reserved word`);
}
