export const ROLES = ['provider', 'reviewer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** `admin` holds both working roles; a route names the role it needs and admin always passes. */
export function grants(heldRoles: readonly Role[], required: Role): boolean {
  return heldRoles.includes('admin') || heldRoles.includes(required);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
