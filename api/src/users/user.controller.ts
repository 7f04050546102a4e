import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '../common/envelope.js';
import { User } from '../auth/access.guard.js';
import { LoggedIn } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { userView, type UserView } from './user-view.js';

@Controller('api/v1.0/user')
export class UserController {
  @Get('current')
  @LoggedIn()
  current(@User() user: Principal): Envelope<UserView> {
    return ok(userView(user));
  }
}
