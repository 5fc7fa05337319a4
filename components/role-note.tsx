/** Why a control is missing or disabled: the role it needs and the roles the caller has. */
export function roleNote(action: string, needed: string, roles: readonly string[]): string {
  return `${action} needs the ${needed} role; you are signed in as ${roles.join(', ') || 'no role'}.`;
}

export function RoleNote({ id, text }: { id?: string; text: string }) {
  return (
    <p className="muted small" id={id} data-testid="role-note">
      {text}
    </p>
  );
}
