'use server';
/** Ends the caller's session (better-auth deletes it and clears the cookie), then goes to /sign-in. */
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '../auth/auth';

export async function signOutAction(): Promise<void> {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch {
    // No session to end: signing out is already done.
  }
  redirect('/sign-in');
}
