/**
 * What a box lets a program touch: the one shape every way of making a box
 * (bubblewrap, Landlock) is given, so both hold the same rules.
 */

/** The rules of one box, for one program lspq starts for a workspace. */
export interface BoxRules {
  /** Folders and files the program may read (and run); everything else is hidden (bubblewrap) or refused (Landlock). */
  read: string[];
  /** Folders it may write: its private scratch, and for a git write the policy allows, the work tree and repository. */
  write: string[];
  /** Whether it may reach the network (only git's fetch, pull and push, as the policy allows them). */
  network: boolean;
}
