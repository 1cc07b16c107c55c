import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'agentloom:isPublic';

/**
 * Every route needs a valid access token unless it is marked @Public(). Secure by default:
 * a route someone forgets to mark is closed, and the route-inventory test lists the open ones.
 */
export const Public = () => SetMetadata(IS_PUBLIC, true);
