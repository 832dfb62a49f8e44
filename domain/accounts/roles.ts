export const ROLES = ['provider', 'reviewer', 'admin', 'operator'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an account's own admins may grant through `POST /api-keys`. */
export const ACCOUNT_ROLES = ['provider', 'reviewer', 'admin'] as const satisfies readonly Role[];
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/**
 * `operator` is platform-wide: it decrypts any account's payloads through the codec, so only the
 * platform admin CLI grants it and no account role implies it.
 */
export const PLATFORM_ROLE = 'operator' satisfies Role;

/** What a route needs: a role, or any one of several (a payer's questionnaire: providers and reviewers). */
export type RoleRequirement = Role | readonly Role[];

/** `admin` holds both working roles of its account; a route names the role it needs. */
export function grants(heldRoles: readonly Role[], required: RoleRequirement): boolean {
  if (typeof required !== 'string') return required.some((role) => grants(heldRoles, role));
  if (required === PLATFORM_ROLE) return heldRoles.includes(PLATFORM_ROLE);
  return heldRoles.includes('admin') || heldRoles.includes(required);
}

/** A requirement as a message names it: `"provider"`, or `"provider" or "reviewer"`. */
export function describeRequirement(required: RoleRequirement): string {
  const roles = typeof required === 'string' ? [required] : required;
  return roles.map((role) => `"${role}"`).join(' or ');
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
